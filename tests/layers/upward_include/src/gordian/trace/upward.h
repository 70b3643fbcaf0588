// A file of the trace module that includes a module above it: what
// cmake/check_layers.cmake must refuse (ModuleLayers.AnIncludeAcrossTheLayersFails).
#pragma once

#include "gordian/report/finding.h"
#include "gordian/util/size.h"
