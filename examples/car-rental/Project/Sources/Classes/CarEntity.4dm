Class extends Entity

/* A computed attribute, exposed: read, filtered and sorted over REST,
   computed by this getter. */
exposed Function get label() : Text
	return This.model.brand+" "+This.model.name+" ("+This.plate+")"

exposed Alias brand model.brand

exposed local Function book($customerID : Text; $from : Date; $to : Date) : cs.RentalEntity
	var $rental : cs.RentalEntity
	$rental:=ds.Rental.new()
	return $rental

Function event validateSave($event : Object) : Object
	If (This.mileage<0)
		return {errCode: 1; message: "negative mileage"}
	End if
