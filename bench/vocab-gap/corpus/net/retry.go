package net

import (
	"math/rand"
	"time"
)

// BackoffWithJitter returns the delay before attempt n: doubling from base up to max,
// with up to half of it randomised so that clients do not retry in lockstep.
func BackoffWithJitter(n int, base, max time.Duration) time.Duration {
	d := base << uint(n)
	if d <= 0 || d > max {
		d = max
	}
	half := d / 2
	return half + time.Duration(rand.Int63n(int64(half)+1))
}

// Do calls op until it succeeds or attempts run out, sleeping between attempts.
func Do(attempts int, op func() error) error {
	var err error
	for n := 0; n < attempts; n++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(BackoffWithJitter(n, 100*time.Millisecond, 10*time.Second))
	}
	return err
}
