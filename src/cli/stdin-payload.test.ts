import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { LIMITS } from '../domain/limits'
import { previewedPostToolUse } from '../../test/support/preview-payload'
import { closedValue, PAYLOAD_KEPT_BYTES, payloadText, readStdinPayload, tooLargeWhy } from './stdin-payload'

/** A stdin that gives `chunks`, one `data` event each, and is then left open, as a client that keeps the pipe does. */
function keptOpen(chunks: (string | Buffer)[]): Readable {
  return Readable.from(
    (async function* () {
      yield* chunks
      await new Promise(() => {})
    })(),
  )
}

/** Whether each prefix of `chunks`, fed in turn, holds a closed value. */
function closesAfter(chunks: string[]): boolean[] {
  const arrived = closedValue()
  return chunks.map((chunk) => arrived(Buffer.from(chunk, 'utf8')))
}

describe('closedValue', () => {
  it('takes no chunk that ends inside a number or a string for the end of the payload', () => {
    expect(closesAfter(['{"a":1', '2}'])).toEqual([false, true])
    expect(closesAfter(['{"a":"x}', '"}'])).toEqual([false, true])
    // An escaped quote does not end the string, nor an escaped backslash fail to.
    expect(closesAfter(['{"a":"\\"}', '"}'])).toEqual([false, true])
    expect(closesAfter(['{"a":"\\\\', '"}'])).toEqual([false, true])
    expect(closesAfter(['{"a":"\\', '"}', '"}'])).toEqual([false, false, true])
    expect(closesAfter(['  \n{"a":[1,{"b":[]}]', '}\n'])).toEqual([false, true])
    expect(closesAfter(['[1,', '2]'])).toEqual([false, true])
  })

  it('never closes a value that is not an object or an array, nor one something other than white space follows', () => {
    // `12` may go on as `123`.
    expect(closesAfter(['12', ' '])).toEqual([false, false])
    expect(closesAfter(['"{}"'])).toEqual([false])
    expect(closesAfter(['{"a":1}', ' {"b":2}'])).toEqual([true, false])
    expect(closesAfter(['{"a":1}x'])).toEqual([false])
  })

  it('passes over a UTF-8 byte order mark before the value, split between chunks too, and nowhere else', () => {
    expect(closesAfter(['\ufeff{"a":1}'])).toEqual([true])
    const bom = Buffer.from('\ufeff{"a":1}\r\n', 'utf8')
    const arrived = closedValue()
    expect([arrived(bom.subarray(0, 1)), arrived(bom.subarray(1, 2)), arrived(bom.subarray(2))]).toEqual([false, false, true])
    expect(closesAfter([' \ufeff{"a":1}'])).toEqual([false])
    expect(closesAfter(['\ufeff\ufeff{"a":1}'])).toEqual([false])
  })

  it('reads a character split between chunks as the bytes it is', () => {
    const bytes = Buffer.from('{"q":"é}"}', 'utf8')
    // The split falls inside é's two bytes.
    const at = bytes.indexOf(0xc3) + 1
    const arrived = closedValue()
    expect([arrived(bytes.subarray(0, at)), arrived(bytes.subarray(at))]).toEqual([false, true])
  })
})

describe('readStdinPayload', () => {
  it('takes a payload that has arrived whole while stdin is left open, chunks and all', async () => {
    const read = await readStdinPayload(keptOpen(['{"a":1', '2,"s":"}', '"}']), 60_000)
    expect(read).toEqual({ text: '{"a":12,"s":"}"}', whole: true })
    expect(JSON.parse(read?.text ?? '')).toEqual({ a: 12, s: '}' })
  })

  it('says a payload still coming when the time runs out did not arrive whole, with what did', async () => {
    expect(await readStdinPayload(keptOpen(['{"a":1', '2']), 0)).toEqual({ text: '{"a":12', whole: false })
    expect(await readStdinPayload(keptOpen([]), 0)).toEqual({ text: '', whole: false })
  })

  it('gives the text without a byte order mark before it, as JSON.parse takes it', async () => {
    expect(await readStdinPayload(keptOpen(['\ufeff{"a":', '1}']), 60_000)).toEqual({ text: '{"a":1}', whole: true })
    expect(await readStdinPayload(Readable.from([Buffer.from([0xef, 0xbb]), Buffer.from([0xbf]), '{}']), 60_000)).toEqual({ text: '{}', whole: true })
    expect(payloadText('\ufeff{"a":1}\r\n')).toBe('{"a":1}\r\n')
    expect(payloadText('{"a":"\ufeff"}')).toBe('{"a":"\ufeff"}')
  })

  it('reads a closed stdin to its end, whatever it holds', async () => {
    expect(await readStdinPayload(Readable.from(['12', '3']), 60_000)).toEqual({ text: '123', whole: true })
    expect(await readStdinPayload(Readable.from(['{"a":1}x']), 60_000)).toEqual({ text: '{"a":1}x', whole: true })
    expect(await readStdinPayload(Readable.from([]), 60_000)).toEqual({ text: '', whole: true })
  })

  it('keeps no more than it is told of a payload: past it, what comes is let go, and the payload said too large, stdin closed or not', async () => {
    // A stream of `y` lines left open (`yes | decision-memory hook`): none of it kept past 10 bytes.
    expect(await readStdinPayload(keptOpen(['y\ny\ny\n', 'y\ny\ny\n', 'y\ny\ny\n']), 0, 10)).toEqual({ text: '', whole: false, tooLarge: true })
    // An object that closes past the bound is none the less too large, not taken whole cut short:
    // stdin left open, at the deadline; closed, at its end.
    expect(await readStdinPayload(keptOpen(['{"a":"', 'x'.repeat(10), '"}']), 0, 10)).toEqual({ text: '', whole: false, tooLarge: true })
    expect(await readStdinPayload(Readable.from(['{"a":"', 'x'.repeat(10), '"}']), 60_000, 10)).toEqual({ text: '', whole: false, tooLarge: true })
    // Up to the bound, it is the payload.
    expect(await readStdinPayload(keptOpen(['{"a":', '"xx"}']), 60_000, 10)).toEqual({ text: '{"a":"xx"}', whole: true })
  })

  it('keeps a payload with large previews whole, over the body limit as Claude Code sends it, which the hook sends without them', async () => {
    const text = JSON.stringify(previewedPostToolUse())
    expect(Buffer.byteLength(text)).toBeGreaterThan(LIMITS.bodyBytes)
    const chunks = text.match(/[^]{1,65536}/g) ?? []
    expect(await readStdinPayload(keptOpen(chunks), 60_000)).toEqual({ text, whole: true })
    expect(PAYLOAD_KEPT_BYTES).toBe(64 * LIMITS.bodyBytes)
    expect(tooLargeWhy('the hook')).toBe('the hook payload on stdin was over 16 MB, more than the hook keeps of one, so it did not arrive whole')
  })
})
