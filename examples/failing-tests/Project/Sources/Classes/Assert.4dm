// Assertions that record into a test's context rather than stop the test.
Class constructor()

Function areEqual($t : cs.Testing; $expected : Variant; $actual : Variant; $message : Text)
	If ($expected=$actual)
		$t.assertions.push({passed: True; expected: $expected; actual: $actual; message: $message})
	Else
		$t.fail($expected; $actual; $message)
	End if

Function isTrue($t : cs.Testing; $value : Boolean; $message : Text)
	This.areEqual($t; True; $value; $message)
