package prims

import "testing"

func TestFan(t *testing.T) {
	Fan(2)
}

func helperNotATest(t *testing.T) {}
