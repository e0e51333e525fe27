// Class-based tests: each test function receives a cs.Testing.
Class constructor()

Function test_countsTheInvoices($t : cs.Testing)
	$t.assert.areEqual($t; 3; ds.Invoice.all().length; "three invoices")

Function test_largestInvoice($t : cs.Testing)
	var $largest : cs.InvoiceEntity
	$largest:=ds.Invoice.all().orderBy("total desc").first()
	$t.assert.areEqual($t; "Grace"; $largest.customer; "the largest invoice is Grace's")
	$t.assert.isTrue($t; $largest.total<100; "no invoice is over 100")
