export * from './leads'
export * from './outbox'
