// Comments in odd places, continuations, spacing.
/* A block comment
   over several lines */
$a:=1  // after a statement
$b:=/* inside an expression */2
$c:=3 /* before a line comment */ // and a line comment
/* a block */ $d:=4
If ($a=1)  // after a block opener
	// alone inside a block
Else   // after Else
	/* block comment in Else */
End if  // after End if
$e:=$a+\
	$b+\
	$c
$f:=Substring("abcdef"; \
	2; \
	3)
$g:={a: 1; \
	b: 2}
$h:=[1; \
	2]
If ($a=1) \
	& ($b=2)
	$i:=1
End if
	   $indented:=1
$trailing:=1   
` a legacy comment
$j:=1 ` and after code
$url:="http://example.com/path"  // the // inside the text is not a comment
$k:="/* not a comment */"
// $skipped:=Substring("abcdef"; \
	2)  (a comment continued: this line belongs to it)
$afterComment:=1
