import { clsx, type ClassValue } from 'clsx'

/**
 * Joins class names. Conflicting utilities are not resolved (tailwind-merge would add 8 KB gzip to
 * every page): components take variant props instead of overrides, and
 * tests/unit/class-conflicts.test.ts fails wherever two utilities for the same property meet.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs)
}
