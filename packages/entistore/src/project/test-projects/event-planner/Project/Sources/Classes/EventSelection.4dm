Class extends EntitySelection

// A function name with a dollar sign, as 4D accepts.
exposed Function $upcoming() : cs.EventSelection
	return This.query("startDate >= :1"; Current date)
