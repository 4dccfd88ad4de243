import { InputError } from './errors'
import { normalizeLabel, ownDescription } from './labels'
import { optionDescription, optionLabel, type OptionInput } from './observation'
import type { OfferedOption } from './recommendation'

/** Normalises the offered options; two that normalise to one label are refused, named at `field.N`. */
export function offeredOptions(options: readonly OptionInput[], field = 'all_options'): OfferedOption[] {
  const out: OfferedOption[] = []
  const seen = new Map<string, number>()
  options.forEach((raw, i) => {
    const option = normalizeLabel(optionLabel(raw))
    const first = seen.get(option)
    if (first !== undefined) {
      throw new InputError('duplicate_option', `options ${first} and ${i} are both "${option}"`, {
        issues: [{ path: `${field}.${i}`, message: `duplicate of ${field}.${first} after normalisation` }],
      })
    }
    seen.set(option, i)
    // The rationale a plan of this service appended is dropped, as the label's annotation is.
    out.push({ option, description: ownDescription(optionDescription(raw)) })
  })
  return out
}
