/**
 * `perp.info-sdk-reads`: POST /info answers, in the venue's shapes, the read requests the common
 * venue SDKs make at start-up and around order placement (their asset maps come from
 * metaAndAssetCtxs / spotMetaAndAssetCtxs; market orders price from allMids; order tools read
 * openOrders). A server that answers only `meta` leaves such an SDK unable to initialise.
 */
import { brief } from '../../context.ts'
import { call } from '../../operations.ts'
import { jsonOf, statusOf } from '../../answers.ts'
import type { Check, CheckContext } from '../../types.ts'

export const PERP_INFO_SDK_READS = 'perp.info-sdk-reads'

const isList = (v: unknown): v is unknown[] => Array.isArray(v)
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

interface Read {
  readonly type: string
  readonly request: (ctx: CheckContext) => Record<string, unknown>
  /** What is wrong with the answer, or null. `names` is the meta universe in order. */
  readonly problem: (answer: unknown, names: readonly string[]) => string | null
}

const READS: readonly Read[] = [
  {
    type: 'metaAndAssetCtxs',
    request: () => ({}),
    problem: (a, names) => {
      if (!isList(a) || a.length !== 2 || !isMap(a[0]) || !isList(a[0].universe) || !isList(a[1])) return 'not [meta, contexts]'
      const got = (a[0].universe as { name?: unknown }[]).map((u) => u?.name)
      if (JSON.stringify(got) !== JSON.stringify(names)) return 'its universe is not the meta universe (asset indexes would differ)'
      return a[1].length === names.length ? null : `${a[1].length} contexts for ${names.length} assets`
    },
  },
  {
    type: 'spotMetaAndAssetCtxs',
    request: () => ({}),
    problem: (a) =>
      isList(a) && a.length === 2 && isMap(a[0]) && isList(a[0].universe) && isList(a[0].tokens) && isList(a[1])
        ? null
        : 'not [{universe, tokens}, contexts]',
  },
  {
    type: 'allMids',
    request: () => ({}),
    problem: (a) => (isMap(a) && Object.values(a).every((v) => typeof v === 'string') ? null : 'not {name: mid}'),
  },
  {
    type: 'l2Book',
    request: (ctx) => ({ coin: ctx.target.symbols[0] }),
    problem: (a) =>
      isMap(a) && isList(a.levels) && a.levels.length === 2 && a.levels.every(isList) ? null : 'not {coin, time, levels: [bids, asks]}',
  },
  { type: 'openOrders', request: (ctx) => ({ user: ctx.wallet().address }), problem: (a) => (isList(a) ? null : 'not a list of orders') },
]

export const perpInfoSdkReads: Check<typeof PERP_INFO_SDK_READS> = {
  id: PERP_INFO_SDK_READS,
  title:
    "POST /info answers the venue SDKs' start-up and order-time reads (metaAndAssetCtxs, spotMetaAndAssetCtxs, allMids, l2Book, openOrders)",
  rules: ['PERP-10'],
  level: 'assumed',
  async run(ctx) {
    const meta = jsonOf(await call(ctx, 'perpInfo', '{"type":"meta"}'))?.universe
    const names = isList(meta) ? meta.map((u) => (u as { name?: unknown })?.name as string) : []
    for (const r of READS) {
      await ctx.case(r.type, `{"type":"${r.type}"}`, async (c) => {
        const e = await call(c, 'perpInfo', JSON.stringify({ type: r.type, ...r.request(c) }))
        const expected = `HTTP 200 with the venue's ${r.type} answer`
        if (statusOf(e) >= 500) c.fail(`server error ${brief(e)}`, { exchange: e, level: 'stated' })
        if (statusOf(e) !== 200) c.fail(`a read the venue SDKs make was refused: ${brief(e)}`, { exchange: e, expected })
        const problem = r.problem(e.response?.json, names)
        if (problem) c.fail(`the ${r.type} answer is ${problem}: ${brief(e)}`, { exchange: e, expected })
      })
    }
  },
}
