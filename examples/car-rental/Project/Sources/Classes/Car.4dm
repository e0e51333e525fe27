Class extends DataClass

exposed Function available($from : Date; $to : Date) : cs.CarSelection
	var $busy : cs.CarSelection
	$busy:=ds.Rental.query("startDate <= :1 and endDate >= :2"; $to; $from).car
	return This.query("active = true").minus($busy)
