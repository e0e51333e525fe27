// Texts compare without case and accents; @ is a wildcard on the right of = and # (dt_string.md).
var $r : Collection
$r:=[]
$r.push("abc"="ABC")  // True
$r.push("Élodie"="elodie")  // True
$r.push("abcdef"="abc@")  // True
$r.push("abcdef"="@def")  // True
$r.push("abc@"="abcdef")  // False: @ on the left is a character
$r.push("abcdefghij"="abc@@fg")  // False: two wildcards in a row never match
$r.push("abc"#"abc@@fg")  // True: # is the negation of =
$r.push("abcd"<="abc@")  // True
$r.push("a"<"B")  // True
$r.push("Alpha Bravo"%"Bravo")  // True: a keyword
$r.push("Alpha Bravo"%"Brav")  // False
$r.push("n"="ñ")  // True
return $r
