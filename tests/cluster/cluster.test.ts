import { randomUUID } from 'node:crypto'
import { Agent } from 'node:http'
import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeNeeding } from '../support/services'
import { hasPgbouncer } from '../support/pgbouncer'
import { keyFrom } from '../support/trial-key'
import { startCluster, usageToken, metricsToken, type Cluster } from './support/cluster'
import { hasHaproxy } from './support/processes'
import { payInTabs } from './support/sandbox-checkout'
import { statusOf } from './support/status-of'
import { launchBrowser } from '../e2e/support/browser'

/**
 * Issue 31: three production builds behind HAProxy (round robin, checked on /healthz), through PgBouncer in
 * transaction mode, sharing Redis and an S3 emulator, the shared secrets set once. Everything a client does
 * goes through the balancer unless a check needs to name the instance ("issued on one, redeemed on another").
 */
const missing = !process.env.TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL set (a Postgres for the cluster)'
  : !process.env.TEST_REDIS_URL
    ? 'TEST_REDIS_URL set (a Redis the instances share)'
    : !hasPgbouncer()
      ? 'pgbouncer installed (apt-get install pgbouncer)'
      : !hasHaproxy()
        ? 'haproxy installed (apt-get install haproxy)'
        : undefined

describeNeeding(missing, 'three instances behind HAProxy, through PgBouncer, sharing Redis and S3', () => {
  let cluster: Cluster
  beforeAll(async () => {
    cluster = await startCluster(process.env.TEST_DATABASE_URL!, process.env.TEST_REDIS_URL!)
  })
  afterAll(async () => {
    await cluster?.stop()
  })

  const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any })
  const keyInfo = async (base: string, apiKey: string) =>
    json(await fetch(`${base}/api/v1/api_key/fe_user`, { headers: { authorization: `Bearer ${apiKey}` } }))
  const embed = (base: string, apiKey: string) =>
    fetch(`${base}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'embeddings-v3', input: ['a cluster of three'] }),
    })
  /** A scraped counter of one instance, summed over the series whose labels contain `labels`. */
  const counter = async (base: string, metric: string, labels: string) => {
    const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text()
    return text
      .split('\n')
      .filter((line) => line.startsWith(`${metric}{`) && line.includes(labels))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0)
  }

  it('spreads requests round robin over the three instances', async () => {
    await cluster.allUp()
    const before = await Promise.all(
      cluster.instances.map((i) => counter(i.baseUrl, 'http_requests_total', 'route="/healthz/live"')),
    )
    for (let n = 0; n < 9; n++) expect((await fetch(`${cluster.url}/healthz/live`)).status).toBe(200)
    const after = await Promise.all(
      cluster.instances.map((i) => counter(i.baseUrl, 'http_requests_total', 'route="/healthz/live"')),
    )
    expect(after.map((n, i) => n - before[i])).toEqual([3, 3, 3])
  })

  it('redeems a captcha solved for one instance on another, once', async () => {
    const [one, two, three] = cluster.instances
    const challenge = (await (
      await fetch(`${one.baseUrl}/api/v1/captcha/challenge?action=new_key`)
    ).json()) as Challenge
    const solution = await solveChallenge({ challenge, deriveKey })
    const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
    const issue = (base: string) =>
      fetch(`${base}/api/v1/api_key/trial`, { method: 'POST', body: new URLSearchParams({ captcha }) })
    const issued = await json(await issue(two.baseUrl))
    expect(issued.status, JSON.stringify(issued.body)).toBe(200)
    const replayed = await json(await issue(three.baseUrl))
    expect(replayed.status).toBeGreaterThanOrEqual(400)
    expect(replayed.body.detail).toBeTruthy()

    // The key it gave works on every instance and through the balancer.
    const apiKey = issued.body.api_key as string
    for (const base of [one.baseUrl, two.baseUrl, three.baseUrl, cluster.url, cluster.url])
      expect((await embed(base, apiKey)).status).toBe(200)
  })

  it('knows a session opened on one instance on all, and its sign-out on all', async () => {
    const [one, two, three] = cluster.instances
    const email = `cluster-${randomUUID().slice(0, 8)}@example.com`
    const signUp = await fetch(`${cluster.auth.url}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'cluster-pass-1', returnSecureToken: true }),
    })
    expect(signUp.status).toBe(200)
    const { idToken, localId } = await cluster.auth.signIn(email, 'cluster-pass-1')
    const opened = await fetch(`${one.baseUrl}/api/v1/account/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(opened.status, await opened.clone().text()).toBe(200)
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]
    const viewer = async (base: string) =>
      ((await (await fetch(`${base}/api/v1/account/session`, { headers: { cookie } })).json()) as any).user
    for (const base of [two.baseUrl, three.baseUrl, cluster.url]) expect((await viewer(base))?.uid).toBe(localId)

    // As the site's page sends it: the cookie with the site's own origin.
    const out = await fetch(`${three.baseUrl}/api/v1/account/session`, {
      method: 'DELETE',
      headers: { cookie, origin: cluster.url },
    })
    expect(out.status).toBe(200)
    for (const base of [one.baseUrl, two.baseUrl, cluster.url]) expect(await viewer(base)).toBeNull()
  })

  it('holds a per-minute limit of N to exactly N across the three', async () => {
    const apiKey = await keyFrom(cluster.url)
    // A burst must fall inside one minute window of the limiter.
    const intoWindow = 60_000 - (Date.now() % 60_000)
    if (intoWindow < 10_000) await new Promise((r) => setTimeout(r, intoWindow + 200))
    // Zero-shot classify: 25 requests a minute for a free key (app.config.ts).
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`${cluster.url}/v1/classify`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'embeddings-v3', input: ['where is my parcel'], labels: ['parcel', 'login'] }),
        }).then((r) => r.status),
      ),
    )
    expect(answers.filter((s) => s === 200).length).toBe(25)
    expect(answers.filter((s) => s === 429).length).toBe(15)
    // Every instance answered some of them.
    const served = await Promise.all(
      cluster.instances.map((i) => counter(i.baseUrl, 'http_requests_total', 'route="/v1/classify"')),
    )
    expect(
      served.every((n) => n > 0),
      JSON.stringify(served),
    ).toBe(true)
  })

  it('answers 200 of 300 concurrent metered requests on a key that can pay for 200, balance 0, ledger clean', async () => {
    const apiKey = await keyFrom(cluster.url, 'empty')
    const { body: info } = await keyInfo(cluster.url, apiKey)
    const keyId = info.key_id as string
    const purchase = { key_id: keyId, amount: 200, type: 'purchase', external_ref: `purchase:${randomUUID()}` }
    await cluster.db`select * from ledger_apply_v2(${cluster.db.json([purchase])}, ${cluster.db.json({})})`

    const agent = new Agent({ keepAlive: true, maxSockets: 100 })
    const statuses = await Promise.all(
      Array.from({ length: 300 }, () => meter(agent, cluster.url, { key_id: keyId, tokens: 1 })),
    )
    agent.destroy()
    expect(statuses.filter((s) => s === 200).length).toBe(200)
    expect(statuses.filter((s) => s === 402).length).toBe(100)
    expect((await keyInfo(cluster.url, apiKey)).body.wallet.total_balance).toBe(0)
    const [audit] = await cluster.db<{ balance: number; sum: number; last: number; consumed: number }[]>`
      select k.balance::int as balance,
        (select coalesce(sum(amount), 0)::int from ledger_entries where key_id = k.id) as sum,
        (select balance_after::int from ledger_entries where key_id = k.id order by id desc limit 1) as last,
        (select count(*)::int from ledger_entries where key_id = k.id and type = 'consume') as consumed
      from api_keys k where k.id = ${keyId}`
    expect(audit).toEqual({ balance: 0, sum: 0, last: 0, consumed: 200 })
  })

  it('credits a sandbox checkout opened on one instance and paid from two tabs through the others once, then charges an auto-recharge crossing once with every worker running', async () => {
    const pack = 1_000_000_000
    const apiKey = await keyFrom(cluster.url)
    const { body: info } = await keyInfo(cluster.url, apiKey)
    const keyId = info.key_id as string
    const balance = async () => (await keyInfo(cluster.url, apiKey)).body.wallet.total_balance as number
    const settled = async (expected: number, what: string) => {
      const deadline = Date.now() + 20_000
      while ((await balance()) !== expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
      expect(await balance(), what).toBe(expected)
    }
    const credits = async () =>
      (
        await cluster.db<{ n: number }[]>`
          select count(*)::int as n from ledger_entries where key_id = ${keyId} and amount = ${pack}`
      )[0].n
    const dashboard = `${cluster.url}/api-dashboard/auto-recharge`
    const opened = await json(
      await fetch(`${cluster.instances[0].baseUrl}/api/v1/auto_recharge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          price_id: 'price_tokens_1b',
          success_url: dashboard,
          cancel_url: dashboard,
          email: 'buyer@example.com',
          metadata: { auto_recharge: true, threshold: 1000, currency: 'USD' },
        }),
      }),
    )
    expect(opened.status, JSON.stringify(opened.body)).toBe(200)
    // Through the balancer: the page, its scripts and each tab's payment land on instances round robin.
    const browser = await launchBrowser()
    try {
      await payInTabs(browser, opened.body.url, 2, /\/api-dashboard\/auto-recharge/)
    } finally {
      await browser.close()
    }
    const paid = info.wallet.total_balance + pack
    await settled(paid, 'the pack, credited once')
    expect(await credits()).toBe(1)

    // Leave 100 tokens above the threshold, then spend 300 in 30 debits spread over the three instances.
    const threshold = paid - 100
    const set = await fetch(`${cluster.instances[1].baseUrl}/api/v1/auto_recharge/settings?threshold=${threshold}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
    })
    expect(set.status, await set.text()).toBe(200)
    const agent = new Agent({ keepAlive: true, maxSockets: 10 })
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => meter(agent, cluster.url, { key_id: keyId, tokens: 10 })),
    )
    agent.destroy()
    expect(statuses.every((s) => s === 200)).toBe(true)
    await settled(paid - 300 + pack, 'one recharge')
    // Every instance's worker polls every 10 s: past one period, none has charged again.
    await new Promise((r) => setTimeout(r, 11_000))
    const [charges] = await cluster.db<{ intents: number; attempts: number }[]>`
      select
        (select count(*)::int from sandbox_objects where kind = 'payment_intent'
          and data->'metadata'->>'key_id' = ${keyId} and data->'metadata'->>'kind' = 'auto_recharge') as intents,
        (select count(*)::int from auto_recharge_attempts where key_id = ${keyId}) as attempts`
    expect(charges).toEqual({ intents: 1, attempts: 1 })
    expect(await credits()).toBe(2)
    expect(await balance()).toBe(paid - 300 + pack)
  })

  it('prunes the request log once per period, not once per instance', async () => {
    const pruned = cluster.instances.flatMap((i) =>
      i
        .output()
        .split('\n')
        .filter((line) => line.includes('"request log pruned"')),
    )
    expect(pruned.length, pruned.join('\n')).toBe(1)
    // The period is recorded as run (the other periodic jobs, the reconciler's and the idempotency keys'
    // retention, have rows of their own).
    const runs = await cluster.db`select job from scheduled_runs where job = 'request-log-retention'`
    expect(runs).toHaveLength(1)
  })

  it('refuses to start a fourth instance whose one shared secret is left per process', async () => {
    let failure = ''
    try {
      const fourth = await cluster.start('web-4', { CAPTCHA_SECRET: '' })
      // It may have passed its health check before it compared secrets: it must exit all the same.
      const code = await new Promise<number | null>((resolve) => {
        if (fourth.child.exitCode !== null) return resolve(fourth.child.exitCode)
        const timer = setTimeout(() => resolve(null), 20_000)
        fourth.child.once('exit', (c) => (clearTimeout(timer), resolve(c)))
      })
      failure = `exit ${code}\n${fourth.output()}`
    } catch (error) {
      failure = (error as Error).message
    }
    expect(failure).toMatch(/exit(ed with)? 1/)
    expect(failure).toContain('refusing to start')
    expect(failure).toContain('CAPTCHA_SECRET')
  })

  it('finishes a bulk job on another instance when the one working it is killed, every row once, charged once', async () => {
    const apiKey = await keyFrom(cluster.url)
    const rows = 20_000
    const text = Array.from({ length: rows }, (_, i) => `row ${i}: a review of a product, ${i % 97} stars`).join('\n')
    const form = new FormData()
    form.append('model', 'embeddings-v3')
    form.append('file', new Blob([text], { type: 'text/plain' }), 'reviews.txt')
    const uploaded = await json(
      await fetch(`${cluster.url}/v1/bulk-embeddings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}` },
        body: form,
      }),
    )
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200)
    const jobId = uploaded.body.id as string

    // Whichever instance claimed it: kill -9 it once it has committed a batch or two.
    let owner: string | undefined
    const deadline = Date.now() + 60_000
    while (!owner && Date.now() < deadline) {
      const [job] = await cluster.db<{ lease_owner: string | null; next_batch: number; status: string }[]>`
        select lease_owner, next_batch, status from bulk_jobs where id = ${jobId}`
      expect(job.status).not.toBe('completed')
      if (job.lease_owner && job.next_batch >= 1) owner = job.lease_owner
      else await new Promise((r) => setTimeout(r, 50))
    }
    expect(owner).toBeDefined()
    const victim = cluster.instances.find((i) => owner!.includes(`:${i.child.pid}:`))!
    expect(victim, owner).toBeDefined()
    victim.child.kill('SIGKILL')

    let status = ''
    let job: any
    const finishBy = Date.now() + 90_000
    while (status !== 'completed' && status !== 'failed' && Date.now() < finishBy) {
      await new Promise((r) => setTimeout(r, 500))
      const answer = await fetch(`${cluster.url}/v1/bulk-embeddings/${jobId}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      }).catch(() => undefined)
      if (answer?.status !== 200) continue
      job = await answer.json()
      status = job.status
    }
    expect(status, JSON.stringify(job)).toBe('completed')
    const [row] = await cluster.db<{ lease_owner: string | null; claims: number }[]>`
      select lease_owner, claims from bulk_jobs where id = ${jobId}`
    expect(row.claims).toBeGreaterThanOrEqual(2)

    // Every row once in the result, fetched through the link another instance signs.
    const link = await json(
      await fetch(`${cluster.url}/v1/bulk-embeddings/${jobId}/download-result`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}` },
      }),
    )
    expect(link.status).toBe(200)
    const result = await fetch(link.body.download_url)
    expect(result.status).toBe(200)
    const indices = (await result.text())
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { index: number }).index)
    expect(indices.length).toBe(rows)
    expect(new Set(indices).size).toBe(rows)

    // Charged once per batch: one debit per batch, together the job's tokens.
    const [charged] = await cluster.db<{ entries: number; tokens: number; used: number }[]>`
      select count(*)::int as entries, coalesce(-sum(amount), 0)::int as tokens,
        (select used_token_count::int from bulk_jobs where id = ${jobId}) as used
      from ledger_entries where external_ref like ${`usage:bulk:${jobId}:%`}`
    expect(charged.entries).toBe(Math.ceil(rows / 256))
    expect(charged.tokens).toBe(charged.used)
    expect(charged.tokens).toBeGreaterThan(0)
  })

  it('drains an instance on SIGTERM under load through the balancer without failing a request', async () => {
    const alive = cluster.instances.filter((i) => i.child.exitCode === null && !i.child.signalCode)
    expect(alive.length).toBeGreaterThanOrEqual(2)
    const apiKey = await keyFrom(cluster.url)
    const { body: info } = await keyInfo(cluster.url, apiKey)
    const agent = new Agent({ keepAlive: true, maxSockets: 6 })
    let loading = true
    const statuses: number[] = []
    const load = Array.from({ length: 6 }, async () => {
      while (loading) statuses.push(await meter(agent, cluster.url, { key_id: info.key_id, tokens: 1 }))
    })
    await new Promise((r) => setTimeout(r, 800))
    const stopped = alive[0].stop({ forceAfterMs: 20_000 })
    const { code, signal } = await stopped
    await new Promise((r) => setTimeout(r, 800))
    loading = false
    await Promise.all(load)
    agent.destroy()
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    expect(statuses.length).toBeGreaterThan(50)
    expect(statuses.filter((s) => s !== 200)).toEqual([])
  })
})

/** One metering request, as a search service sends it; its status, or 0 if the connection failed. */
const meter = (agent: Agent, base: string, body: { key_id: string; tokens: number }) =>
  statusOf(agent, `${base}/internal/v1/usage`, {
    method: 'POST',
    bearer: usageToken,
    body: { ...body, product: 'reader', usage_event_id: randomUUID() },
  })
