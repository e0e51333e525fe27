// Tests of the fleet, as a class: `setup` once, `beforeEach` before each test; each test starts
// from the data as setup left it (entistore test restores it), so one test's writes are never
// another's.
property cars : Integer
property agency : cs.AgencyEntity

Class constructor()
	This.cars:=0

Function setup()
	This.agency:=ds.Agency.query("city = :1"; "Lyon").first()
	This.cars:=ds.Car.all().length

Function beforeEach()
	ASSERT(ds.Car.all().length=This.cars; "each test starts from the fleet setup saw")

Function test_statsCountTheFleet()
	ASSERT(ds.stats().cars=This.cars)

Function test_aNewCarJoinsTheFleet()
	var $car : cs.CarEntity
	$car:=ds.Car.new()
	$car.plate:="ZZ-999-ZZ"
	$car.modelID:=1
	$car.agency:=This.agency
	$car.mileage:=0
	$car.active:=True
	var $status : Object
	$status:=$car.save()
	ASSERT($status.success; "the new car is saved")
	ASSERT(ds.stats().cars=(This.cars+1))

Function test_aNegativeMileageIsRefused()
	var $car : cs.CarEntity
	$car:=ds.Car.get(1)
	$car.mileage:=-5
	var $status : Object
	$status:=$car.save()
	ASSERT(Not($status.success); "validateSave refuses a negative mileage")

Function test_theQuoteIsTheCategorysRate()
	var $rate : Real
	$rate:=ds.Car.get(1).model.category.dailyRate
	ASSERT(cs.Pricing.me.quote(1; 3)=($rate*3))
