/**
 * @module The classic transaction commands (commands/transactions.ts) on a datastore, as 4D's pages
 * say them (docs/commands-legacy/start-transaction.md, validate-transaction.md: OK 1 once
 * validated; cancel-transaction.md: the writes since the start dropped, no system variable;
 * in-transaction.md, transaction-level.md), nested with ORDA's `ds.startTransaction()` (the same
 * transaction of the process), in plain and tokenized spelling.
 */
import { describe, expect, test } from 'vitest'
import { runFor, store } from './orda.fixture.js'

describe('START TRANSACTION, VALIDATE TRANSACTION, CANCEL TRANSACTION', () => {
  test('the same in tokenized spelling', () => {
    const ds = store()
    const code = `
START TRANSACTION:C239
var $level : Integer:=Transaction level:C961
VALIDATE TRANSACTION:C240
return [$level; In transaction:C397; OK]`
    expect(runFor(ds, code)).toEqual([1, false, 1])
  })

  test("cancel drops the writes since the start and leaves OK, validate keeps them and sets OK 1; one level with ORDA's", () => {
    const ds = store()
    const code = `
var $before : Integer:=ds.Company.all().length
var $seen : Collection:=[]
START TRANSACTION
$seen.push(In transaction)
$seen.push(Transaction level)
var $c : cs.CompanyEntity:=ds.Company.new()
$c.name:="Dropped"
$c.save()
OK:=7
CANCEL TRANSACTION
$seen.push(OK)
$seen.push(ds.Company.all().length-$before)
$seen.push(In transaction)
START TRANSACTION
ds.startTransaction()
$seen.push(Transaction level)
$c:=ds.Company.new()
$c.name:="Kept"
$c.save()
ds.validateTransaction()
VALIDATE TRANSACTION
$seen.push(OK)
$seen.push(ds.Company.query("name = :1"; "Kept").length)
$seen.push(Transaction level)
return $seen`
    expect(runFor(ds, code)).toEqual([true, 1, 7, 0, false, 2, 1, 1, 0])
  })
})
