// Class: VehicleFactory
property vehicleBuilt : Integer

shared singleton Class constructor()
	This.vehicleBuilt:=0

shared Function buildVehicle($type : Text) -> $vehicle : cs.Vehicle
	Case of
		: $type="car"
			$vehicle:=cs.Car.new()
		: $type="truck"
			$vehicle:=cs.Truck.new()
		Else
			$vehicle:=cs.Car.new()
	End case
	This.vehicleBuilt+=1

exposed onHTTPGet shared Function count() : Integer
	return This.vehicleBuilt
