/**
 * Counts hashed features of one text: an open-addressing table over typed arrays, reused from text to text.
 * A generation stamp marks the live slots, so starting a new text costs nothing instead of clearing the table.
 */
export class FeatureTable {
  private keys!: Uint32Array
  private counts!: Uint32Array
  private kinds!: Uint8Array
  private stamps!: Uint32Array
  private used!: Int32Array
  private mask!: number
  private generation = 1
  size = 0

  constructor(initialCapacity = 4096) {
    this.allocate(2 ** Math.ceil(Math.log2(Math.max(16, initialCapacity))))
  }

  /** Empty arrays for `capacity` slots (a power of two), at most half of them used. */
  private allocate(capacity: number): void {
    this.keys = new Uint32Array(capacity)
    this.counts = new Uint32Array(capacity)
    this.kinds = new Uint8Array(capacity)
    this.stamps = new Uint32Array(capacity)
    this.used = new Int32Array(capacity >>> 1)
    this.mask = capacity - 1
    this.generation = 1
    this.size = 0
  }

  /** Forgets every feature. */
  reset(): void {
    this.size = 0
    this.generation++
    // After 2^32 - 1 texts the stamps would repeat: start again from clean stamps.
    if (this.generation === 0xffffffff) {
      this.stamps.fill(0)
      this.generation = 1
    }
  }

  /** Counts one occurrence of the feature `key` (a uint32 hash); `kind` is kept from its first occurrence. */
  add(key: number, kind: number): void {
    let slot = key & this.mask
    while (this.stamps[slot] === this.generation) {
      if (this.keys[slot] === key) {
        this.counts[slot]++
        return
      }
      slot = (slot + 1) & this.mask
    }
    this.stamps[slot] = this.generation
    this.keys[slot] = key
    this.counts[slot] = 1
    this.kinds[slot] = kind
    this.used[this.size++] = slot
    // Half full at most, so probes stay short.
    if (this.size === this.used.length) this.grow()
  }

  /** Calls `visit` once per distinct feature with its key, kind and count. */
  forEach(visit: (key: number, kind: number, count: number) => void): void {
    for (let i = 0; i < this.size; i++) {
      const slot = this.used[i]
      visit(this.keys[slot], this.kinds[slot], this.counts[slot])
    }
  }

  private grow(): void {
    const { keys, counts, kinds, used, size } = this
    this.allocate((this.mask + 1) * 2)
    for (let i = 0; i < size; i++) {
      const old = used[i]
      let slot = keys[old] & this.mask
      while (this.stamps[slot] === 1) slot = (slot + 1) & this.mask
      this.stamps[slot] = 1
      this.keys[slot] = keys[old]
      this.counts[slot] = counts[old]
      this.kinds[slot] = kinds[old]
      this.used[this.size++] = slot
    }
  }
}
