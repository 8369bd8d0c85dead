/** What the outbox hands a mailer, and what a mailer does (SMTP, a folder of files, or a test double). */
export interface OutgoingMail {
  id: string
  to: string
  subject: string
  text: string
  kind: string
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>
}
