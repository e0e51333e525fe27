Class extends DataStoreImplementation

// Exposed: listed in $catalog's methods, callable at /rest/$catalog/appInfo (GET too).
exposed onHTTPGet Function appInfo() : Object
	return {name: "car rental"; tables: OB Keys(ds)}

exposed Function stats() : Object
	return {cars: ds.Car.all().length}

// POST /rest/$catalog/sayHello ["Ada","Lovelace"] answers {"result": "Hello Ada Lovelace!"}.
exposed Function sayHello($firstName : Text; $lastName : Text) : Text
	return "Hello "+$firstName+" "+$lastName+"!"

// The days of a rental from $from to $to, both counted; dates come as "YYYY-MM-DD" texts.
exposed Function rentalDays($from : Date; $to : Date) : Integer
	If ($to<$from)
		throw(1; "The rental ends before it starts")
	End if
	return $to-$from+1

// The price of each day of a rental at $dailyRate, the week's seventh day free.
exposed Function priceByDay($dailyRate : Real; $days : Integer) : Collection
	var $prices : Collection:=[]
	var $day : Integer
	For ($day; 1; $days)
		$prices.push(($day%7=0) ? 0 : $dailyRate)
	End for
	return $prices

exposed Function getFirstCar() : cs.CarEntity
	return ds.Car.all().first()

exposed Function getEntitySel($brand : Text) : cs.CarSelection
	return ds.Car.query("model.brand = :1"; $brand)

// Not exposed: for the application's own code only.
Function purge()
	ds.AuditLog.all().drop()
