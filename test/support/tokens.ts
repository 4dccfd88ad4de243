import { createTokenTable, TokensFileSchema } from '../../src/config/load-tokens'

/** Bearer tokens of the auth tests (R-SVC-4): alice's laptop, bob's (who also acts for `default`), and ops, for every user. */
export const ALICE = 'alice-token-0123456789abcdef'
export const BOB = 'bob-token-0123456789abcdef'
export const OPS = 'ops-token-0123456789abcdef'

export const testTokens = createTokenTable(
  TokensFileSchema.parse({
    tokens: [
      { name: 'alice-laptop', token: ALICE, users: ['alice'] },
      { name: 'bob-laptop', token: BOB, users: ['bob', 'default'] },
      { name: 'ops', token: OPS, users: ['*'] },
    ],
  }),
)
