Class extends Entity

exposed Function rate() : Real
	return This.rate
