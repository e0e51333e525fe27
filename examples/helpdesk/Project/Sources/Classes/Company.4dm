Class extends DataClass

// The companies that have a ticket not closed.
exposed onHTTPGet Function waiting() : cs.CompanySelection
	return This.query("tickets.status # :1"; "closed")
