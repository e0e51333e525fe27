// A test's context, with the members the public class-based frameworks give theirs (a test function
// receives one: `Function test_x($t : cs.Testing)`): `failed`, the `assertions` made, `logMessages`,
// `fail()`, and an `assert` object. entistore test makes one for each test function and reads it.
property failed : Boolean
property assertions : Collection
property logMessages : Collection
property assert : cs.Assert

Class constructor()
	This.failed:=False
	This.assertions:=[]
	This.logMessages:=[]
	This.assert:=cs.Assert.new()

Function fail($expected : Variant; $actual : Variant; $message : Text)
	This.failed:=True
	This.assertions.push({passed: False; expected: $expected; actual: $actual; message: $message})

Function log($message : Text)
	This.logMessages.push($message)
