import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

/** The invitation link of the last invitation mailed to `to`, from the served build's local outbox in `dataDir`. */
export async function invitationLinkTo(dataDir: string, to: string): Promise<string | undefined> {
  const dir = join(dataDir, 'outbox')
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.json'))
  // A file being written as it is read parses on the next poll.
  const read = async (file: string) => JSON.parse(await readFile(join(dir, file), 'utf8').catch(() => '{}'))
  const mails = (await Promise.all(files.map((file) => read(file).catch(() => ({}))))).filter((mail) => mail.to)
  const text = mails
    .filter((mail: { to: string; text?: string }) => mail.to.toLowerCase() === to.toLowerCase() && mail.text)
    .map((mail: { text: string }) => mail.text)
    .find((body: string) => body.includes('invitation='))
  return text?.match(/https?:\/\/\S+invitation=\S+/)?.[0]
}
