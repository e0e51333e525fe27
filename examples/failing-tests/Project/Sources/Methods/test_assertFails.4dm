//%attributes = {}
// Fails: the sum of the totals is not what the assertion says.
var $sum : Real
$sum:=ds.Invoice.all().sum("total")
ASSERT($sum=250; "the totals sum to 250")
