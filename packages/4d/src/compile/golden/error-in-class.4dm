// An error in a class function names the class file, its line and Class.function.
$car:=cs.Car.new()
$car.drive(0)
// ---- class Car
Function drive($speed : Integer)
	var $ratio : Real
	$ratio:=100\$speed
