import type { ReliabilityBin } from './metrics'

/** One line of a chart: a name for the legend and its points. */
export interface Series {
  name: string
  points: ReadonlyArray<readonly [number, number]>
  /** Drawn dashed (for limits such as the oracle). */
  dashed?: boolean
}

const WIDTH = 760
const HEIGHT = 400
const MARGIN = { top: 40, right: 170, bottom: 56, left: 60 }
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom
/** Colour-blind-safe palette (Okabe & Ito 2008). */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#555555', '#D55E00', '#56B4E9']
const FONT = 'font-family="Helvetica, Arial, sans-serif"'

/** Fixed-point text, so the same figure always gives the same bytes. */
function n(value: number): string {
  return value.toFixed(1)
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

function scale(domain: readonly [number, number], range: readonly [number, number]) {
  const [d0, d1] = domain
  const [r0, r1] = range
  return (value: number) => r0 + ((value - d0) / (d1 - d0)) * (r1 - r0)
}

interface Frame {
  title: string
  xLabel: string
  yLabel: string
  xDomain: readonly [number, number]
  yDomain: readonly [number, number]
  xTicks: ReadonlyArray<{ at: number; label: string }>
  yTicks: readonly number[]
}

/** The axes, grid, title and labels that every chart shares. */
function frame(spec: Frame): {
  parts: string[]
  x: (v: number) => number
  y: (v: number) => number
} {
  const x = scale(spec.xDomain, [MARGIN.left, MARGIN.left + PLOT_W])
  const y = scale(spec.yDomain, [MARGIN.top + PLOT_H, MARGIN.top])
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" ${FONT} font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${n(MARGIN.left)}" y="22" font-size="15" font-weight="bold">${escapeXml(spec.title)}</text>`,
  ]
  for (const t of spec.yTicks) {
    parts.push(
      `<line x1="${n(MARGIN.left)}" y1="${n(y(t))}" x2="${n(MARGIN.left + PLOT_W)}" y2="${n(y(t))}" stroke="#e5e5e5"/>`,
      `<text x="${n(MARGIN.left - 6)}" y="${n(y(t) + 4)}" text-anchor="end">${t.toFixed(1)}</text>`,
    )
  }
  for (const t of spec.xTicks) {
    parts.push(
      `<line x1="${n(x(t.at))}" y1="${n(MARGIN.top + PLOT_H)}" x2="${n(x(t.at))}" y2="${n(MARGIN.top + PLOT_H + 4)}" stroke="#333333"/>`,
      `<text x="${n(x(t.at))}" y="${n(MARGIN.top + PLOT_H + 18)}" text-anchor="middle" font-size="11">${escapeXml(t.label)}</text>`,
    )
  }
  parts.push(
    `<rect x="${n(MARGIN.left)}" y="${n(MARGIN.top)}" width="${n(PLOT_W)}" height="${n(PLOT_H)}" fill="none" stroke="#333333"/>`,
    `<text x="${n(MARGIN.left + PLOT_W / 2)}" y="${n(HEIGHT - 12)}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`,
    `<text transform="translate(16 ${n(MARGIN.top + PLOT_H / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`,
  )
  return { parts, x, y }
}

function legend(
  entries: ReadonlyArray<{ name: string; colour: string; dashed?: boolean; square?: boolean }>,
): string[] {
  const left = MARGIN.left + PLOT_W + 14
  return entries.flatMap((e, i) => {
    const top = MARGIN.top + 8 + i * 20
    const mark = e.square
      ? `<rect x="${n(left)}" y="${n(top - 6)}" width="18" height="10" fill="${e.colour}"/>`
      : `<line x1="${n(left)}" y1="${n(top)}" x2="${n(left + 18)}" y2="${n(top)}" stroke="${e.colour}" stroke-width="2.5"${e.dashed === true ? ' stroke-dasharray="5 3"' : ''}/>`
    return [mark, `<text x="${n(left + 24)}" y="${n(top + 4)}">${escapeXml(e.name)}</text>`]
  })
}

/** A line chart of several series over evenly spaced categories (or numbers) on x. */
export function lineChart(
  spec: Omit<Frame, 'yTicks'> & { series: readonly Series[]; yTicks?: readonly number[] },
): string {
  const yTicks = spec.yTicks ?? [0, 0.2, 0.4, 0.6, 0.8, 1]
  const { parts, x, y } = frame({ ...spec, yTicks })
  spec.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length] as string
    const path = s.points
      .map(([px, py], j) => `${j === 0 ? 'M' : 'L'}${n(x(px))} ${n(y(py))}`)
      .join(' ')
    parts.push(
      `<path d="${path}" fill="none" stroke="${colour}" stroke-width="2.5"${s.dashed === true ? ' stroke-dasharray="5 3"' : ''}/>`,
    )
    for (const [px, py] of s.points)
      parts.push(`<circle cx="${n(x(px))}" cy="${n(y(py))}" r="3" fill="${colour}"/>`)
  })
  parts.push(
    ...legend(
      spec.series.map((s, i) => ({
        name: s.name,
        colour: COLOURS[i % COLOURS.length] as string,
        dashed: s.dashed,
      })),
    ),
    '</svg>',
  )
  return parts.join('\n') + '\n'
}

/**
 * A reliability diagram (DeGroot & Fienberg 1983): per bin of stated probability, the share that
 * came true, against the diagonal of perfect calibration; bar widths are the bins, and the
 * number above each bar is how many predictions fell in it.
 */
export function reliabilityDiagram(spec: {
  title: string
  xLabel: string
  yLabel: string
  bins: readonly ReliabilityBin[]
}): string {
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1]
  const { parts, x, y } = frame({
    title: spec.title,
    xLabel: spec.xLabel,
    yLabel: spec.yLabel,
    xDomain: [0, 1],
    yDomain: [0, 1],
    xTicks: ticks.map((t) => ({ at: t, label: t.toFixed(1) })),
    yTicks: ticks,
  })
  const bar = COLOURS[0] as string
  const gap = COLOURS[5] as string
  for (const b of spec.bins) {
    if (b.count === 0) continue
    const left = x(b.from) + 2
    const width = x(b.to) - x(b.from) - 4
    parts.push(
      `<rect x="${n(left)}" y="${n(y(b.observed))}" width="${n(width)}" height="${n(y(0) - y(b.observed))}" fill="${bar}" fill-opacity="0.75"/>`,
      `<line x1="${n(left)}" y1="${n(y(b.meanProbability))}" x2="${n(left + width)}" y2="${n(y(b.meanProbability))}" stroke="${gap}" stroke-width="2.5"/>`,
      `<text x="${n(left + width / 2)}" y="${n(Math.min(y(b.observed), y(b.meanProbability)) - 4)}" text-anchor="middle" font-size="10">${b.count}</text>`,
    )
  }
  parts.push(
    `<line x1="${n(x(0))}" y1="${n(y(0))}" x2="${n(x(1))}" y2="${n(y(1))}" stroke="#333333" stroke-dasharray="4 3"/>`,
    ...legend([
      { name: 'observed share', colour: bar, square: true },
      { name: 'mean stated', colour: gap },
      { name: 'perfect calibration', colour: '#333333', dashed: true },
    ]),
    '</svg>',
  )
  return parts.join('\n') + '\n'
}
