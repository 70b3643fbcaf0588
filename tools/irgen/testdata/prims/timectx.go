// Context cancellation and timers.
package prims

import (
	"context"
	"time"
)

func Deadline(parent context.Context, d time.Duration) error {
	ctx, cancel := context.WithCancel(parent) // ir: ctx-cancel
	defer cancel() // ir: cancel via=defer
	t := time.NewTimer(d) // ir: timer-new dur=p1
	defer t.Stop() // ir: timer-stop via=defer
	select { // ir: select blocking=1 cases=3
	case <-ctx.Done(): // ir: ctx-done
		return ctx.Err() // ir: ctx-err
	case <-t.C:
		return nil
	case <-time.After(2 * d): // ir: timer-after dur="(* 2 p1)"
		return nil
	}
}
