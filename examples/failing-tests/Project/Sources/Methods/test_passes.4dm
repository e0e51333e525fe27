//%attributes = {}
// Passes: three invoices in the data.
ASSERT(ds.Invoice.all().length=3)
