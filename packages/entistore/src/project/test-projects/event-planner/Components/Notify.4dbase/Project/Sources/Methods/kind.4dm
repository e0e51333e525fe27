//%attributes = {"invisible":true}
#DECLARE() : Text
return "1.0"
