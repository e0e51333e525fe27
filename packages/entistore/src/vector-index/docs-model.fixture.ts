/** A model with one 4D.Vector attribute, for the tests of vectors kept and searched. */
export const DOCS_MODEL = {
  __NAME: 'docs',
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'embedding', type: 'object', classID: '4D.Vector' },
      ],
    },
  ],
}
