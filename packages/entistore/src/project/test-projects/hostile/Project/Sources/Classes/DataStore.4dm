Class extends DataStoreImplementation

// Employees and companies, so that reads and queries have rows to go through.
exposed Function seed($count : Integer) : Integer
	var $i : Integer
	var $company : cs.CompanyEntity
	var $employee : cs.EmployeeEntity
	$company:=ds.Company.new()
	$company.name:="Acme"
	$company.save()
	For ($i; 1; $count)
		$employee:=ds.Employee.new()
		$employee.firstname:="First"+String($i)
		$employee.lastname:="Last"+String($i)
		$employee.employer:=$company
		$employee.save()
	End for
	return ds.Employee.all().length

// Tasks, whose getters run long for one of them.
exposed Function seedTasks($count : Integer) : Integer
	var $i : Integer
	var $task : cs.TaskEntity
	For ($i; 1; $count)
		$task:=ds.Task.new()
		$task.title:="Task"+String($i)
		$task.save()
	End for
	return ds.Task.all().length

// A task's getter that loops long (the first's), or never ends (the second's), read by 4D code.
exposed Function readHeavy($id : Integer) : Integer
	return ds.Task.get($id).heavy

exposed Function readEndless($id : Integer) : Integer
	return ds.Task.get($id).endless

// The same through an employee's aliases of its task's getters.
exposed Function readTaskHeavy($id : Integer) : Integer
	return ds.Employee.get($id).taskHeavy

exposed Function readTaskEndless($id : Integer) : Integer
	return ds.Employee.get($id).taskEndless

// The tasks' getters read by their names: `$filter` a text or a collection, the window given
// (all of them without `$howMany`).
// The tasks whose getter heavy (or endless) passes $min: a query of a getter, and its max.
exposed Function tasksOver($attribute : Text; $min : Integer) : Integer
	return ds.Task.query($attribute+" > :1"; $min).length

exposed Function tasksMax($attribute : Text) : Integer
	return ds.Task.all().max($attribute)

exposed Function tasksAsCollection($filter : Variant; $begin : Integer; $howMany : Integer) : Collection
	If ($howMany=0)
		$howMany:=ds.Task.all().length
	End if
	return ds.Task.all().orderBy("ID").toCollection($filter; 0; $begin; $howMany)

exposed Function taskAsObject($id : Integer; $filter : Text) : Object
	return ds.Task.get($id).toObject($filter)

exposed Function tasksExtracted($path : Text) : Collection
	return ds.Task.all().orderBy("ID").extract($path)

// Through a relation: the first employee's task is the first task.
exposed Function employeeAsObject($id : Integer; $filter : Text) : Object
	return ds.Employee.get($id).toObject($filter)

exposed Function employeesExtracted($id : Integer; $path : Text) : Collection
	return ds.Employee.query("ID = :1"; $id).extract($path)

// Tasks inside what a function returns: its reply writes each whole, their getters too.
exposed Function taskInObject($id : Integer) : Object
	return New object("task"; ds.Task.get($id))

exposed Function tasksInCollection($ids : Collection) : Collection
	return $ids.map(Formula(ds.Task.get($1.value)))

exposed Function tasksInObject($ids : Collection) : Object
	return New object("tasks"; ds.Task.query("ID in :1"; $ids).orderBy("ID"))

// A function that calls itself with no end.
exposed Function down($depth : Integer) : Integer
	return This.down($depth+1)

// The same, reading every employee at each level on the way down.
exposed Function downReading($depth : Integer) : Integer
	var $all : Collection
	$all:=ds.Employee.all().toCollection()
	return This.downReading($depth+1)+$all.length

// A loop with no end.
exposed Function spin() : Integer
	var $n : Integer
	While (True)
		$n:=$n+1
	End while
	return $n

// A loop that ends, after `$count` passes: the request is long but legitimate.
exposed Function count($count : Integer) : Integer
	var $i; $n : Integer
	For ($i; 1; $count)
		$n:=$n+($i%7)
	End for
	return $n

// A collection resized to `$size` elements.
exposed Function grow($size : Integer) : Integer
	var $c : Collection
	$c:=New collection
	$c.resize($size; 0)
	return $c.length

// A process array sized to `$size` elements.
exposed Function array($size : Integer) : Integer
	ARRAY LONGINT($a; $size)
	return Size of array($a)

// A text repeated `$times` times, then upper-cased.
exposed Function shout($times : Integer) : Integer
	var $t : Text
	$t:="ab"*$times
	$t:=Uppercase($t)
	return Length($t)

// A pattern of the kind real projects validate names with: each letter doubles its backtracking.
exposed Function validName($name : Text) : Boolean
	return Match regex("^([a-zA-Z0-9]+\\s?)*$"; $name)

// A pattern the client gives.
exposed Function matches($pattern : Text; $text : Text) : Boolean
	return Match regex($pattern; $text)

// The files of a folder of the project, its subfolders' included.
exposed Function listing($path : Text) : Integer
	return Folder(Folder(fk database folder).path+$path; fk posix path).files(fk recursive).length

// A copy of a folder of the project into another.
exposed Function copy($from : Text; $to : Text) : Text
	var $root : 4D.Folder
	$root:=Folder(fk database folder)
	return $root.folder($from).copyTo($root.folder($to)).path

// Catches what the call it makes throws, and says so.
exposed Function caught($what : Text; $n : Integer) : Text
	var $error : Text
	Try
		Case of
			: ($what="down")
				This.down(0)
			: ($what="grow")
				This.grow($n)
			: ($what="array")
				This.array($n)
			: ($what="shout")
				This.shout($n)
		End case
	Catch
		$error:=String(Last errors[0].errCode)+" "+Last errors[0].message
	End try
	return $error

// `$count` numbers in a scrambled order, kept in Storage for the calls below, which run no loop
// of 4D code of their own: their work is the builtins'.
exposed Function prepare($count : Integer) : Integer
	var $c : Collection
	var $i : Integer
	$c:=New collection
	$c.resize($count; 0)
	For ($i; 0; $count-1)
		$c[$i]:=($i*7919)%1000003
	End for
	Use (Storage)
		Storage.numbers:=$c.copy(ck shared)
	End use
	return $c.length

// The smallest of the numbers, by a sort of them all.
exposed Function sorted() : Integer
	return Storage.numbers.copy().sort()[0]

// The numbers written as a JSON text and read back.
exposed Function parsed() : Integer
	return JSON Parse(JSON Stringify(Storage.numbers)).length

// The first `$count` numbers, each given to a function that loops `$passes` times.
exposed Function mapped($count : Integer; $passes : Integer) : Integer
	return Storage.numbers.slice(0; $count).map(Formula($2.slow($1.value; $3)); This; $passes).length

// A value, after `$passes` passes of a loop.
Function slow($value : Integer; $passes : Integer) : Integer
	var $i; $n : Integer
	For ($i; 1; $passes)
		$n:=$n+1
	End for
	return $value+$n-$passes

// The tasks ordered, or found, by a formula that loops long (issue 78): through the first task's
// getter heavy, or a method that loops `$passes` times for each task (`$1` the settings' args);
// the IDs found, in their order.
exposed Function orderedByHeavyFormula() : Collection
	return ds.Task.all().orderByFormula(Formula(This.heavy); dk descending).ID

exposed Function orderedByLoopFormula($passes : Integer) : Collection
	return ds.Task.all().orderByFormula(Formula(passing(0-This.ID; $1.passes)); dk ascending; New object("args"; New object("passes"; $passes))).ID

exposed Function queriedByLoopFormula($passes : Integer) : Collection
	return ds.Task.query(Formula(passing(This.ID; $1.passes)>1); New object("args"; New object("passes"; $passes))).ID

exposed Function selectionQueriedByHeavyFormula() : Collection
	return ds.Task.all().query(Formula(This.heavy>5000000)).ID

// The same through the second task's getter endless, which never ends.
exposed Function orderedByEndlessFormula() : Collection
	return ds.Task.all().orderByFormula(Formula(This.endless)).ID

exposed Function queriedByEndlessFormula() : Collection
	return ds.Task.query(Formula(This.endless>0)).ID

// Task $id's label assigned in code (its setter runs), then saved: the title the task has then.
exposed Function relabel($id : Integer; $label : Text) : Text
	var $task : cs.TaskEntity
	var $result : Object
	$task:=ds.Task.get($id)
	$task.label:=$label
	$result:=$task.save()
	return ds.Task.get($id).title

// Two texts of 4×$times characters with accents compared: each folded (its comparison key) a
// piece at a time in a call in slices.
exposed Function compared($times : Integer) : Boolean
	var $a; $b : Text
	$a:="é b "*$times
	$b:=$a+"z"
	return $a<$b

// A keyword looked for in such a text, found in its last word.
exposed Function keyword($times : Integer) : Boolean
	var $a : Text
	$a:=("é b "*$times)+"zèbre"
	return $a%"ZEBRE"

// $count texts of 4×$times characters with accents, each ended by a number, sorted: each folded
// once, a piece at a time in a call in slices. The length of the first.
exposed Function sortedTexts($count : Integer; $times : Integer) : Integer
	var $c : Collection:=[]
	var $i : Integer
	var $base : Text:="é b "*$times
	For ($i; 1; $count)
		$c.push($base+String($count-$i))
	End for
	return Length($c.sort()[0])
