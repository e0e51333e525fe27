import { describe, expect, it } from 'vitest'
import { parseXml, XmlSyntaxError, type XmlElement } from './xml-reader.js'

/** The error `parseXml(text)` throws, as `line:column: message`. */
function refusal(text: string): string {
  try {
    parseXml(text)
  } catch (e) {
    if (!(e instanceof XmlSyntaxError)) throw e
    return `${e.line}:${e.column}: ${e.message}`
  }
  throw new Error('parsed')
}

const attr = (el: XmlElement, name: string): string | undefined => el.attributes.get(name)?.value

describe('parseXml', () => {
  it('reads elements, attributes and their places, past the prolog and the DOCTYPE', () => {
    const root = parseXml(
      '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<!DOCTYPE base SYSTEM "http://www.4d.com/dtd/2007/base.dtd" >\n' +
        '<base name="shop">\n' +
        '\t<table name="Company" id=\'1\'>\n' +
        '\t\t<field name="ID" type="4"/>\n' +
        '\t</table>\n' +
        '</base>\n',
    )
    expect(root.name).toBe('base')
    expect(attr(root, 'name')).toBe('shop')
    expect([root.line, root.column]).toEqual([3, 1])
    const table = root.children[0]!
    expect([table.name, attr(table, 'name'), attr(table, 'id')]).toEqual(['table', 'Company', '1'])
    const field = table.children[0]!
    expect([field.line, field.column]).toEqual([5, 3])
    expect(field.attributes.get('type')).toEqual({ value: '4', line: 5, column: 20 })
  })

  it('decodes entity and character references, CDATA, and skips comments', () => {
    const root = parseXml(
      '<a t="&lt;&amp;&quot;&#65;&#x42;">x &gt; y<!-- <no> --><![CDATA[<raw & text>]]></a>',
    )
    expect(attr(root, 't')).toBe('<&"AB')
    expect(root.text).toBe('x > y<raw & text>')
    expect(root.children).toEqual([])
  })

  it('reads a tab or line break in an attribute value as a space', () => {
    expect(attr(parseXml('<a t="x\n\ty"/>'), 't')).toBe('x  y')
  })

  it('skips an internal DOCTYPE subset that holds ">"', () => {
    expect(parseXml('<!DOCTYPE a [ <!ELEMENT a (b)> ]><a/>').name).toBe('a')
  })

  it.each([
    ['', '1:1: the file holds no element'],
    ['<a>', '1:4: the file ends inside <a> (opened at line 1, column 1): it is truncated'],
    [
      '<base>\n  <table name="T">\n',
      '3:1: the file ends inside <table> (opened at line 2, column 3): it is truncated',
    ],
    ['<a><b></a>', '1:7: </a> closes <b> (opened at line 1, column 4)'],
    ['<a x="1" x="2"/>', '1:10: the attribute "x" is given twice'],
    ['<a x=1/>', '1:6: the value of "x" must be in quotes'],
    ['<a x="1"y="2"/>', '1:9: expected a space, ">" or "/>" after an attribute'],
    ['<a x="a<b"/>', '1:8: "<" cannot be in the value of "x" (write &lt;)'],
    ['<a>&nbsp;</a>', '1:4: unknown entity &nbsp; (XML knows &lt; &gt; &amp; &quot; &apos;)'],
    ['<a>\n R&D </a>', '2:3: "&" must start a reference such as &amp; (got &D)'],
    ['<a>&#0;</a>', '1:4: invalid character reference &#0;'],
    ['<a/><b/>', '1:5: only one root element is allowed: text or markup after it'],
    ['text<a/>', '1:1: expected "<": text before the root element'],
    ['<a><!-- open</a>', '1:4: a comment is not closed: the file ends inside it'],
    ['<a><![CDATA[x</a>', '1:4: a CDATA section is not closed: the file ends inside it'],
    ['<a x="1', '1:4: the value of "x" is not closed: the file ends inside it'],
    ['<a><1/></a>', '1:5: expected an element name after "<"'],
    ['<a/><!DOCTYPE a>', '1:5: a DOCTYPE is allowed only before the root element'],
    ['<a>]]></a>', '1:4: "]]>" cannot be in text'],
  ])('refuses %j: %s', (text, message) => {
    expect(refusal(text)).toBe(message)
  })
})
