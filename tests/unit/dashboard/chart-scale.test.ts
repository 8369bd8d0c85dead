import { describe, expect, it } from 'vitest'
import { axisLabelIndices, niceScale } from '~/features/dashboard/usage/chart-scale'

describe('the usage chart’s axes', () => {
  it('tops the value axis just above the highest day, in round whole steps', () => {
    expect(niceScale(0)).toEqual({ top: 1, ticks: [0, 1] })
    expect(niceScale(3)).toEqual({ top: 3, ticks: [0, 1, 2, 3] })
    expect(niceScale(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] })
    expect(niceScale(1_234)).toEqual({ top: 1_500, ticks: [0, 500, 1_000, 1_500] })
    expect(niceScale(95_000)).toEqual({ top: 100_000, ticks: [0, 25_000, 50_000, 75_000, 100_000] })
    expect(niceScale(2_000_000_000).top).toBe(2_000_000_000)
  })

  it('keeps every bar inside the axis', () => {
    for (const max of [1, 9, 11, 99, 101, 4_321, 87_654_321]) expect(niceScale(max).top).toBeGreaterThanOrEqual(max)
  })

  it('dates every other day of a week, and the first, middle and last day of a month or a quarter', () => {
    expect(axisLabelIndices(7)).toEqual([0, 2, 4, 6])
    expect(axisLabelIndices(30)).toEqual([0, 15, 29])
    expect(axisLabelIndices(90)).toEqual([0, 45, 89])
    expect(axisLabelIndices(1)).toEqual([0])
    expect(axisLabelIndices(0)).toEqual([])
  })
})
