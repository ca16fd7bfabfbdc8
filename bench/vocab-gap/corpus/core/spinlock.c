#include <stdatomic.h>

typedef struct {
  atomic_flag flag;
} spinlock_t;

void
spin_acquire (spinlock_t *lock)
{
  while (atomic_flag_test_and_set_explicit (&lock->flag, memory_order_acquire))
    ;
}

void
spin_release (spinlock_t *lock)
{
  atomic_flag_clear_explicit (&lock->flag, memory_order_release);
}

static spinlock_t hits_lock = { ATOMIC_FLAG_INIT };
static long hits;

void
hits_increment (void)
{
  spin_acquire (&hits_lock);
  hits++;
  spin_release (&hits_lock);
}
