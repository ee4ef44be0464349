/**
 * Remembers recent fits. The AI SDK sends the whole conversation on every step, so without this each step
 * would decode and resize every image of the history again. Keyed by the original data itself (a string
 * or the very same byte array), then by the name and limits the result was made for; the oldest entry
 * goes first once `capacity` originals are held.
 */
export class FitCache<T> {
  private readonly entries = new Map<string | Uint8Array, Map<string, Promise<T>>>();

  constructor(private readonly capacity = 64) {}

  get(original: string | Uint8Array, variant: string, make: () => Promise<T>): Promise<T> {
    let variants = this.entries.get(original);
    if (variants === undefined) {
      variants = new Map();
      this.entries.set(original, variants);
      if (this.entries.size > this.capacity) {
        const oldest = this.entries.keys().next();
        if (oldest.done !== true) this.entries.delete(oldest.value);
      }
    }
    let result = variants.get(variant);
    if (result === undefined) {
      result = make();
      variants.set(variant, result);
    }
    return result;
  }
}
