package session

import "testing"

func TestSaveTwice(t *testing.T) {
	SaveTwice("user")
}
