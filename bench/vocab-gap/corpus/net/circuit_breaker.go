package net

import (
	"errors"
	"sync"
	"time"
)

var ErrOpen = errors.New("breaker open")

// Breaker opens after Threshold consecutive errors and lets one probe through after Cooldown.
type Breaker struct {
	mu        sync.Mutex
	Threshold int
	Cooldown  time.Duration
	errs      int
	openedAt  time.Time
}

func (b *Breaker) Call(op func() error) error {
	b.mu.Lock()
	if b.errs >= b.Threshold && time.Since(b.openedAt) < b.Cooldown {
		b.mu.Unlock()
		return ErrOpen
	}
	b.mu.Unlock()

	err := op()

	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.errs++
		if b.errs >= b.Threshold {
			b.openedAt = time.Now()
		}
	} else {
		b.errs = 0
	}
	return err
}
