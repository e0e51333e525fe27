//%attributes = {}
// A car rented over the dates asked is not available; an inactive one never is.
var $all; $free : cs.CarSelection
$all:=ds.Car.query("active = true")
$free:=ds.Car.available(!2024-06-12!; !2024-06-13!)
ASSERT($free.length<$all.length; "the car rented from June 10 to 17 is busy")
ASSERT($free.query("ID = 2").length=0)
ASSERT(ds.Car.available(!2030-01-01!; !2030-01-02!).length=$all.length; "every active car is free in 2030")
