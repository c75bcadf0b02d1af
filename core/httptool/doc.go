// Package httptool makes a tool that calls an HTTP endpoint: the model's
// arguments fill the URL's {name} placeholders, the query and the body, and
// the reply becomes the tool's result. A program links it by importing it.
//
//	weather := httptool.New(httptool.Options{
//		Name: "weather", URL: "https://api.example/weather/{city}",
//		Headers: map[string]string{"authorization": "Bearer ${WEATHER_KEY}"},
//		Variables: map[string]string{"WEATHER_KEY": key},
//	}) // {"city":"Oslo"} ⇒ GET https://api.example/weather/Oslo
package httptool
