pub fn myfn() -> () {
    println!("MyStruct#myfn()");
}
