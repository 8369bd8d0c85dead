import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serverEnv } from '~/server/env'
import type { Mailer, OutgoingMail } from './mail-types'

/** Over SMTP when SMTP_URL is set; otherwise each message becomes an .eml (and a .json) under DATA_DIR/outbox. */
export async function createMailer(env = serverEnv()): Promise<Mailer> {
  const { default: nodemailer } = await import('nodemailer')
  const message = (m: OutgoingMail) => ({
    from: env.MAIL_FROM,
    to: m.to,
    subject: m.subject,
    text: m.text,
    messageId: `<${m.id}@outbox>`,
  })
  if (env.SMTP_URL) {
    const transport = nodemailer.createTransport(env.SMTP_URL)
    return { send: async (m) => void (await transport.sendMail(message(m))) }
  }
  const dir = join(env.DATA_DIR, 'outbox')
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    async send(m) {
      await mkdir(dir, { recursive: true })
      const info = await transport.sendMail(message(m))
      await writeFile(join(dir, `${m.id}.eml`), info.message as Buffer)
      await writeFile(join(dir, `${m.id}.json`), JSON.stringify({ ...message(m), kind: m.kind }, null, 2))
    },
  }
}
