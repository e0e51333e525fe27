// Forms found in public 4D projects that 4D's compiler accepts.
// A chain of calls with each call on a line of its own, after a `\`.
$staff:=ds.Employee\
.query("salary > :1"; 1000)\
  .orderBy("lastName asc")
// A local whose name starts with a digit.
var $4thJan : Date
$4thJan:=!2024-01-04!
$1stRow:=$staff.first()
// Block comments nest: the code below the inner comment stays commented out.
/* outer
  /* inner */
  $staff:=Null
*/
$mode:=(Application type=4D Local mode)
LOG EVENT(Into 4D debug message; "started"; Information message)
$file:=4D.File.new("/LOGS/x.txt")
// The parameters from the second on, typed by var as C_TEXT(${2}) types them.
var ${2} : Text
var ${3}
// A member call whose arguments follow on the next line.
$all:=$people.query("age > 18").combine\
	($people.query("age < 3")).distinct()
// A chain with one of its calls commented out between two lines.
$names:=$people\
	.filter(Formula($1.value#Null))\
	/*.flat()*/.map(Formula($1.value.name))
// A spaced name the tables do not list, after one they do (Table).
SET DATABASE PARAMETER($ptr->; Table sequence number; 0)
