Class extends DataStoreImplementation

// Three companies (two named Acme, the second closed once its employees are saved: a save checks
// the employer it names is seen), employees of each in turn, and lots.
exposed Function seed($count : Integer) : Integer
	var $i : Integer
	var $company; $closed : cs.CompanyEntity
	var $employee : cs.EmployeeEntity
	var $lot : cs.LotEntity
	For ($i; 1; 3)
		$company:=ds.Company.new()
		$company.name:=($i=3) ? "Globex" : "Acme"
		$company.open:=True
		$company.save()
		If ($i=2)
			$closed:=$company
		End if
	End for
	For ($i; 1; $count)
		$employee:=ds.Employee.new()
		$employee.lastName:="Employee"+String($i)
		$employee.employerID:=($i%3)+1
		$employee.save()
		$lot:=ds.Lot.new()
		$lot.name:="Lot"+String($i)
		$lot.save()
	End for
	$closed.open:=False
	$closed.save()
	return ds.Employee.all().length

// How many passes Company's restrict loops (-1: without end).
exposed Function passes($restrict : Integer)
	Use (Storage)
		Storage.restrictPasses:=$restrict
	End use

// The employees of the companies named $name that may be seen: a query through the relation.
exposed Function employeesOf($name : Text) : Integer
	return ds.Employee.query("employer.name = :1"; $name).length

// The same, narrowing a selection read first, the path given by a placeholder.
exposed Function narrowTo($name : Text) : Integer
	return ds.Employee.all().query(":1 = :2"; "employer.name"; $name).length

// The last names of the first two employees by their employer's name, the last name first.
exposed Function firstByEmployer() : Text
	var $sorted : cs.EmployeeSelection
	$sorted:=ds.Employee.all().orderBy("employer.name desc, lastName")
	return $sorted[0].lastName+","+$sorted[1].lastName

// How many employers' names the employees give, a hidden one left out.
exposed Function employerNames() : Integer
	return ds.Employee.all().extract("employer.name").length

// The names of the employers that may be seen, through the alias.
exposed Function employerNamesSeen() : Collection
	return ds.Employee.all().distinct("employerName")

// The same as firstByEmployer, the order given as criteria.
exposed Function firstByCriteria() : Text
	var $sorted : cs.EmployeeSelection
	$sorted:=ds.Employee.all().orderBy([{propertyPath: "employer.name"; descending: True}; {propertyPath: "lastName"}])
	return $sorted[0].lastName+","+$sorted[1].lastName

// The same as employeesOf, the name given by the query's settings.
exposed Function employeesNamed($name : Text) : Integer
	return ds.Employee.query("employer.name = :name"; {parameters: {name: $name}}).length

// An employee's employer's name through the alias employerName, read as a member: the
// restrict of Company first (Null when it hides the employer).
exposed Function employerNameOf($id : Integer) : Variant
	return ds.Employee.get($id).employerName

// The first employees with their employer's name, by toCollection (and toObject) through the
// relation: the restrict of Company first.
exposed Function employersCollected() : Text
	var $employees : cs.EmployeeSelection
	$employees:=ds.Employee.query("ID <= :1"; 4).orderBy("ID asc")
	return JSON Stringify($employees.toCollection("ID, employer.name"))+JSON Stringify($employees.first().toObject("employer.name"))
