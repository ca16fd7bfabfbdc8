// Calls `fn` once `waitMs` have gone by without another call.
export function debounce<A extends unknown[]>(fn: (...args: A) => void, waitMs = 250) {
  let handle: ReturnType<typeof setTimeout> | undefined;
  return (...args: A): void => {
    if (handle !== undefined) clearTimeout(handle);
    handle = setTimeout(() => fn(...args), waitMs);
  };
}
