shared singleton Class constructor()
	This.currency:="EUR"

exposed Function quote($carID : Integer; $days : Integer) : Real
	return ds.Car.get($carID).model.category.dailyRate*$days

exposed onHTTPGet Function rates() : Collection
	return ds.CarCategory.all().toCollection("label, dailyRate")
