import { useSyncExternalStore } from 'react'
import * as v from 'valibot'

/**
 * A value kept in local storage under one key, parsed with its schema: whatever else is found there (not
 * JSON, the wrong shape) reads as `fallback` instead of failing the page. Reads are cached; writes and
 * other tabs' changes reach every subscriber. On the server it is always `fallback`, so hydration matches.
 */
export function persistedStore<T>(key: string, schema: v.GenericSchema<unknown, T>, fallback: T) {
  let current: T | undefined
  const listeners = new Set<() => void>()

  function readStored(): T {
    try {
      const result = v.safeParse(schema, JSON.parse(localStorage.getItem(key) ?? '{}'))
      return result.success ? result.output : fallback
    } catch {
      return fallback
    }
  }

  function get(): T {
    if (typeof window === 'undefined') return fallback
    return (current ??= readStored())
  }

  function set(next: T): void {
    current = next
    localStorage.setItem(key, JSON.stringify(next))
    listeners.forEach((listener) => listener())
  }

  function subscribe(listener: () => void) {
    listeners.add(listener)
    // Another tab changed it: re-read.
    const onStorage = (event: StorageEvent) => {
      if (event.key !== key) return
      current = readStored()
      listener()
    }
    window.addEventListener('storage', onStorage)
    return () => {
      listeners.delete(listener)
      window.removeEventListener('storage', onStorage)
    }
  }

  const use = (): T => useSyncExternalStore(subscribe, get, () => fallback)

  return { get, set, use }
}
