/**
 * @module For tests: the model of the cluster tests, accounts (a balance to move between them) and
 * items (a unique name), each with an autosequence key.
 */
export const ACCOUNTS = {
  __NAME: 'cluster',
  dataClasses: [
    {
      name: 'Account',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'owner', type: 'string' },
        { name: 'balance', type: 'number' },
      ],
    },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', unique: true },
      ],
    },
  ],
}
