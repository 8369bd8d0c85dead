/** Shapes of the dashboard API's answers (spec §3, §7), as the dashboard reads them. */

/** Spec §3 key info; `key_display` is the server's recognisable-but-unusable form of the key. */
export interface KeyInfo {
  key_display?: string
  email: string | null
  wallet: { total_balance: number }
  metadata: { speed_level: number; auto_recharge: boolean }
  created_at?: string
}

/** Spec §4 transaction types; the ledger writes transfer in/out with underscores. */
export type TransactionType = 'trial' | 'purchase' | 'consume' | 'transfer_in' | 'transfer_out' | 'refund' | 'adjustment'

export interface TransactionRecord {
  id: string
  type: TransactionType
  amount: number
  balance_after: number
  product: string | null
  model: string | null
  created_at: string
}

export interface TransactionPage {
  transactions: TransactionRecord[]
  next_cursor: string | null
}

export interface ConsumptionDay {
  date: string
  total_tokens: number
  by_product: Record<string, number>
}

export interface ConsumptionTotals {
  start: string
  end: string
  total_tokens: number
  by_product: Record<string, number>
  by_day: ConsumptionDay[]
}

/** The transfer endpoint answers with the domain's result as is. */
export type { TransferResult } from '~/server/domain/transfers'

export interface BalanceNotification {
  thresholds: number[]
  email: string | null
}

export interface ModelRecord {
  slug: string
  name: string
  tags: string[]
  parameters?: string | number | null
  context_length?: number | null
  dimensions?: number | null
  release_date?: string
  description?: string
  num_replicas?: number
}

/** ALTCHA v1 challenge (altcha-lib/v1 `createChallenge`): find n with hash(salt + n) === challenge. */
export interface CaptchaChallengeV1 {
  algorithm: string
  challenge: string
  maxnumber?: number
  salt: string
  signature: string
}

/** ALTCHA v2 challenge (altcha-lib `createChallenge`): find a counter whose derived key starts with keyPrefix. */
export interface CaptchaChallengeV2 {
  parameters: {
    algorithm: string
    nonce: string
    salt: string
    cost: number
    keyLength: number
    keyPrefix: string
    expiresAt?: number
  }
  signature?: string
}

/** What GET /api/v1/captcha/challenge answers when the server uses Turnstile instead. */
export interface TurnstileChallenge {
  provider: 'turnstile'
  site_key: string | null
}

export type CaptchaChallenge = CaptchaChallengeV1 | CaptchaChallengeV2 | TurnstileChallenge
