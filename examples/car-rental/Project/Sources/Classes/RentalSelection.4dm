Class extends EntitySelection

exposed Function total() : Real
	return This.sum("totalPrice")
