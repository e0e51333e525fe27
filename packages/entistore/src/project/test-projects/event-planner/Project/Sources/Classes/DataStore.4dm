Class extends DataStoreImplementation

// A data generator as public apps have them: no key is given, the server makes each one.
exposed Function generate($count : Integer) : Integer
	var $room : cs.RoomEntity
	var $event : cs.EventEntity
	var $employee : cs.EmployeeEntity
	var $inscription : cs.InscriptionEntity
	var $i : Integer
	$room:=ds.Room.new()
	$room.label:="Main hall"
	$room.seats:=120
	$room.save()
	For ($i; 1; $count)
		$event:=ds.Event.new()
		$event.title:="Event "+String($i)
		$event.startDate:=Add to date(!2025-01-01!; 0; 0; $i)
		$event.save()
		$employee:=ds.Employee.new()
		$employee.name:="Guest "+String($i)
		$employee.save()
		$inscription:=ds.Inscription.new()
		$inscription.event:=$event
		$inscription.employee:=$employee
		$inscription.save()
	End for
	return ds.Event.all().length
