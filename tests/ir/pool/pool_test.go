package pool

import "testing"

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3}, 2); got != 6 {
		t.Fatalf("Sum = %d, want 6", got)
	}
}
