// Keywords in any case, every modifier, variadic parameters, server functions.
CLASS EXTENDS cs.Base

class constructor($first : Text; ... : Integer)
	SUPER($first)
	IF ($first="")
		$first:="none"
	ELSE
		$first:=Lowercase($first)
	END IF

server Function onServer() : cs.UsersEntity
	return ds.Users.get(1)

local exposed Function both()
	return

Exposed Local Function capitalized()

function lowercase($values : Collection; ...$rest : Text) : Text
	for each ($v; $values)
	end for each
	return $values.join(", ")

Function untypedParams($a; $b : Text; $c)
	return $a
