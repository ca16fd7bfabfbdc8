use std::time::Instant;

/// A token bucket: `capacity` tokens, refilled at `per_second`; each call takes one.
pub struct TokenBucket {
    capacity: f64,
    tokens: f64,
    per_second: f64,
    last: Instant,
}

impl TokenBucket {
    pub fn new(capacity: u32, per_second: f64) -> Self {
        TokenBucket { capacity: capacity as f64, tokens: capacity as f64, per_second, last: Instant::now() }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.capacity);
        self.last = now;
    }

    /// Takes a token if one is left; the caller answers 429 otherwise.
    pub fn try_acquire(&mut self) -> bool {
        self.refill();
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
