/**
 * @module The classic transaction commands (commands/transactions.ts) on a datastore: `START
 * TRANSACTION`, `VALIDATE TRANSACTION`, `CANCEL TRANSACTION`, `In transaction`, `Transaction
 * level`, the same transaction as ORDA's `ds.startTransaction()`, as code mixing both runs them.
 */
import { describe, expect, test } from 'vitest'
import { runFor, store } from './orda.fixture.js'

describe('START TRANSACTION, VALIDATE TRANSACTION, CANCEL TRANSACTION', () => {
  test("cancel drops the writes since the start, validate keeps them; OK says which; one level with ORDA's", () => {
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
    expect(runFor(ds, code)).toEqual([true, 1, 0, 0, false, 2, 1, 1, 0])
  })
})
